import os from 'node:os';

/**
 * An address of this machine that is not loopback (its LAN or container address): a request
 * sent from it to a listener on 0.0.0.0 arrives from a non-loopback peer, as one from the LAN would.
 */
export function nonLoopbackAddress(): string {
  const address = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4')?.address;
  if (!address) throw new Error('this machine has no non-loopback IPv4 address: the test needs one to play a LAN peer');
  return address;
}
