/** Discord's variables (docs/integrations.md, "Discord"): only where its API is, for tests. */
import { z } from 'zod';

export const discordEnv = z.object({
  /** Replaces `https://discord.com` in every webhook URL (the path is kept): a wire fake in tests. */
  DISCORD_API_URL: z.url({ protocol: /^https?$/ }).optional(),
});

/** The origin webhook URLs are posted to: DISCORD_API_URL's when set, else the URL's own. */
export function discordApiOrigin(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const parsed = discordEnv.safeParse({ DISCORD_API_URL: env.DISCORD_API_URL || undefined });
  return parsed.success && parsed.data.DISCORD_API_URL ? new URL(parsed.data.DISCORD_API_URL).origin : undefined;
}
