/**
 * Run by sender.test.ts in a process of its own, started with NODE_EXTRA_CA_CERTS (Node reads it
 * only at start-up): sends one page with the push_web sender and no WEB_PUSH_CA_FILE, and prints
 * what the sender answered as one JSON line. argv: data folder, the stored address.
 */
import { loadConfig } from '../../../src/config';
import { createWebPushSender, webPushSettings } from '../../../src/integrations/web-push';

async function main(): Promise<void> {
  const [dataDir, address] = process.argv.slice(3);
  const config = webPushSettings(loadConfig({ KLAXON_DATA_DIR: dataDir, APP_URL: 'https://klaxon.example.test', ALLOW_PRIVATE_TARGETS: 'true' }).notify);
  const sender = createWebPushSender(config);
  try {
    const sent = await sender.send({ notificationId: 'n-ca', channel: 'push_web', to: address, subject: 'Trusted by NODE_EXTRA_CA_CERTS', text: 'ca' });
    process.stdout.write(`${JSON.stringify({ sent })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
  } finally {
    await sender.close?.();
  }
}

void main();
