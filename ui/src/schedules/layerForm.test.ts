import { describe, expect, it } from 'vitest';
import { draftOfLayer, layerBody, moved, newLayer, scheduleBody } from './layerForm';
import type { Layer } from './types';

describe('layer form ↔ body', () => {
  it('when a stored layer is edited unchanged, then the body sent is the layer again', () => {
    const layer: Layer = {
      name: 'Primary',
      users: ['a', 'b'],
      rotation: { unit: 'weeks', length: 2 },
      handoff_time: '09:30',
      start: '2026-12-01',
      restrictions: [
        { type: 'daily', start_time: '22:00', duration_seconds: 8 * 3600 },
        { type: 'weekly', start_day: 7, start_time: '20:00', duration_seconds: 12 * 3600 + 30 * 60 + 15 },
      ],
    };
    expect(layerBody(draftOfLayer(layer))).toEqual(layer);
  });

  it('when a new layer has no name and no restrictions, then neither is sent; a typed number is sent as a number', () => {
    const draft = { ...newLayer('2026-12-01'), users: ['a'], length: '3' };
    expect(layerBody(draft)).toEqual({ users: ['a'], rotation: { unit: 'days', length: 3 }, handoff_time: '09:00', start: '2026-12-01' });
  });

  it('when the length is left empty, then it is sent as it is, for the server to name the field', () => {
    expect((layerBody({ ...newLayer('2026-12-01'), length: '' }).rotation as { length: unknown }).length).toBe('');
  });

  it('when a schedule is sent, then its fields are the API’s names', () => {
    expect(scheduleBody({ name: 'Ops', timeZone: 'Europe/Berlin', layers: [] })).toEqual({ name: 'Ops', time_zone: 'Europe/Berlin', layers: [] });
  });
});

describe('rotation order', () => {
  it('when a person is moved up or down, then they swap with their neighbour; at an end nothing moves', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});
