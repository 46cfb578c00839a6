import { readBody, readForm } from '../../../src/domain/ingest/body';

describe('reading a raw body', () => {
  it('when the body is JSON sent as text/plain (SNS), then it is parsed as JSON', () => {
    expect(readBody('{"Type":"Notification"}')).toEqual({ Type: 'Notification' });
    expect(readBody('  [1, 2]\n')).toEqual([1, 2]);
  });

  it('when the body is a form, then its fields become an object', () => {
    expect(readBody('monitorID=797214863&alertType=1&monitorFriendlyName=Public+API%20ping')).toEqual({
      monitorID: '797214863',
      alertType: '1',
      monitorFriendlyName: 'Public API ping',
    });
  });

  it('when a query string with its leading ? is given, then its fields become an object', () => {
    expect(readBody('?monitorID=1&alertType=2')).toEqual({ monitorID: '1', alertType: '2' });
  });

  it('when the body is free text or broken JSON, then the raw text is returned', () => {
    expect(readBody('hello world')).toBe('hello world');
    expect(readBody('{"broken": ')).toBe('{"broken": ');
    expect(readBody('a=1&just text')).toBe('a=1&just text');
  });

  it('when the form reader is given nothing or free text, then it finds no form', () => {
    expect(readForm('')).toBeUndefined();
    expect(readForm('?')).toBeUndefined();
    expect(readForm('=1')).toBeUndefined();
    expect(readForm('a=')).toEqual({ a: '' });
  });
});
