import { MAX_COMMAND_TEXT, parseSlackCommand } from '../../../../src/integrations/slack/command-text';

describe('/klaxon command text', () => {
  it.each([
    ['oncall', { kind: 'oncall', schedule: null }],
    ['  OnCall  ', { kind: 'oncall', schedule: null }],
    ['oncall Primary  rota', { kind: 'oncall', schedule: 'Primary rota' }],
    ['on-call Ops', { kind: 'oncall', schedule: 'Ops' }],
    ['incidents', { kind: 'incidents' }],
    ['ack 42', { kind: 'act', action: 'acknowledge', number: 42 }],
    ['acknowledge #7', { kind: 'act', action: 'acknowledge', number: 7 }],
    ['Resolve 3', { kind: 'act', action: 'resolve', number: 3 }],
    ['help', { kind: 'help', unknown: null }],
    ['', { kind: 'help', unknown: null }],
    ['   ', { kind: 'help', unknown: null }],
  ])('when the text is %j, then it parses to %j', (text, expected) => {
    expect(parseSlackCommand(text)).toEqual(expected);
  });

  it.each(['ack', 'ack 0', 'ack -1', 'ack 4 5', 'ack four', 'resolve 1234567890', 'incidents now', 'page everyone', 'ack 1.5'])(
    'when the text is %j, then it is help naming the unknown text',
    (text) => {
      expect(parseSlackCommand(text)).toEqual({ kind: 'help', unknown: text });
    },
  );

  it('when the text is longer than the cap, then it is help and the parse stays quick', () => {
    const long = `ack ${'9'.repeat(MAX_COMMAND_TEXT)}`;
    const started = Date.now();
    expect(parseSlackCommand(long).kind).toBe('help');
    expect(parseSlackCommand(`oncall ${' a'.repeat(10_000)}`).kind).toBe('help');
    expect(Date.now() - started).toBeLessThan(100);
  });
});
