import { actingSlackEmail, type SlackUserFacts } from '../../../src/integrations/slack/acting-rules';

const person = (over: Partial<SlackUserFacts> = {}): SlackUserFacts => ({
  teamId: 'T0INSTALLED',
  email: 'ada@example.test',
  emailConfirmed: true,
  inactive: false,
  ...over,
});

describe('actingSlackEmail', () => {
  it('when a person of the installed team has a confirmed email, then they may act under it', () => {
    expect(actingSlackEmail(person(), 'T0INSTALLED')).toEqual({ email: 'ada@example.test' });
  });

  it('when the person belongs to another team, has no or an unconfirmed email, or is deleted or a bot, then they act for nobody, whatever the email', () => {
    expect(actingSlackEmail(person({ teamId: 'T0ELSEWHERE' }), 'T0INSTALLED')).toEqual({ reason: 'other_team' });
    expect(actingSlackEmail(person({ teamId: null }), 'T0INSTALLED')).toEqual({ reason: 'other_team' });
    expect(actingSlackEmail(person({ emailConfirmed: false }), 'T0INSTALLED')).toEqual({ reason: 'unconfirmed_email' });
    expect(actingSlackEmail(person({ email: null }), 'T0INSTALLED')).toEqual({ reason: 'no_email' });
    expect(actingSlackEmail(person({ inactive: true }), 'T0INSTALLED')).toEqual({ reason: 'inactive' });
  });
});
