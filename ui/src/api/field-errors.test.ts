import { describe, expect, it } from 'vitest';
import { fieldOf, messageFor } from './field-errors';

describe('the field a server error names', () => {
  it('reads both spellings of a nested field as the dotted one', () => {
    expect(fieldOf('layers[0].users: x@example.test is not a member')).toBe('layers.0.users');
    expect(fieldOf('steps.1.delay_seconds: Too big')).toBe('steps.1.delay_seconds');
    expect(fieldOf('password: must be at least 10 characters')).toBe('password');
  });
  it('names no field for a sentence', () => {
    expect(fieldOf('Only Billing Owners may do this')).toBeUndefined();
    expect(fieldOf(undefined)).toBeUndefined();
  });
  it('gives the message to the field it names and to the fields around it, not to others', () => {
    const message = 'steps[0].targets[1]: no such user';
    expect(messageFor(message, 'steps.0')).toBe(message);
    expect(messageFor(message, 'steps.0.targets.1')).toBe(message);
    expect(messageFor(message, 'steps.1')).toBeUndefined();
    expect(messageFor(message, 'steps.0.targets.10')).toBeUndefined();
  });
});
