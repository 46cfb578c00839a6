import { CHANNEL_IDS, CHANNELS } from '../../../src/domain/channels';
import { REGISTRY, type IntegrationKey } from '../../../src/integrations/registry';
import type { ProviderModule } from '../../../src/integrations/types';

/**
 * The registry names each folder's module by a computed path (src/integrations/registry.ts,
 * `loadFolder`), so neither the compiler nor a bundler follows it: these checks are what catch a
 * misspelt folder or export.
 */
describe('the integration registry', () => {
  const keys = Object.keys(REGISTRY) as IntegrationKey[];

  it.each(keys)('when the %s entry is loaded, then its folder gives a module', (key) => {
    expect(REGISTRY[key].load()).toEqual(expect.any(Object));
  });

  it('when a channel names the entries that send it, then each is in the registry and its module has senders', () => {
    for (const channel of CHANNEL_IDS) {
      for (const provider of CHANNELS[channel].providers) {
        expect({ channel, provider, known: provider in REGISTRY }).toEqual({ channel, provider, known: true });
        expect({ channel, provider, senders: typeof (REGISTRY[provider as IntegrationKey].load() as ProviderModule).senders }).toEqual({
          channel,
          provider,
          senders: 'function',
        });
      }
    }
  });

  it('when the channel table is read, then every channel comes from exactly one entry', () => {
    const declared = Object.values(REGISTRY).flatMap((entry) => Object.keys('channels' in entry ? entry.channels : {}));
    expect(declared).toEqual(CHANNEL_IDS);
  });
});
