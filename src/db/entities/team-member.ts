import { EntitySchema } from '@mikro-orm/core';

/** A person in a team: paged when an escalation step targets the team. */
export interface TeamMember {
  teamId: string;
  userId: string;
  createdAt: Date;
}

export const TeamMemberSchema = new EntitySchema<TeamMember>({
  name: 'TeamMember',
  tableName: 'team_members',
  properties: {
    teamId: { type: 'uuid', primary: true },
    userId: { type: 'uuid', primary: true, index: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
