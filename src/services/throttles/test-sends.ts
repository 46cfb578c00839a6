/** The one budget of test sends (docs/security.md, "Limits"): per member and per workspace, whatever the kind. */
import type { Knex } from '@mikro-orm/postgresql';
import { Counter, Throttled } from './counter';
import { TEST_SEND_LIMITS } from './limits';

const { perUser, perUserWindowSeconds, perWorkspace, perWorkspaceWindowSeconds } = TEST_SEND_LIMITS;

/** What a refused test send says (routes document their 429 with it). */
export const TEST_SEND_REFUSAL = `at most ${perUser} test sends per member in ${perUserWindowSeconds / 60} minutes and ${perWorkspace} per workspace an hour (Retry-After); nothing was sent`;

/**
 * Test sends per member and per workspace. A send refused by either limit takes nothing from the
 * other; `giveBack` returns both points when the send was refused afterwards for another reason
 * (a drill's target drilled a minute ago), so a refusal spends no budget.
 */
export class TestSendThrottle {
  private readonly perUser: Counter;
  private readonly perWorkspace: Counter;

  constructor(knex: Knex) {
    this.perUser = new Counter(knex, 'test-send-user', perUser, perUserWindowSeconds);
    this.perWorkspace = new Counter(knex, 'test-send-workspace', perWorkspace, perWorkspaceWindowSeconds);
  }

  /** Counts one test send by `userId` in the workspace; throws Throttled when either is over its limit. */
  async take(organizationId: string, userId: string): Promise<void> {
    // Reads first: a flood already over its limit is refused without a write (as the other throttles).
    const spent = (await Promise.all([this.perUser.spent(userId), this.perWorkspace.spent(organizationId)])).filter((s) => s !== null);
    if (spent.length) throw refused(Math.max(...spent));
    const userWait = await this.perUser.take(userId);
    if (userWait !== null) throw refused(userWait);
    const workspaceWait = await this.perWorkspace.take(organizationId);
    if (workspaceWait !== null) {
      await this.perUser.giveBack(userId);
      throw refused(workspaceWait);
    }
  }

  /** Returns a counted send that was then refused before anything went out. */
  async giveBack(organizationId: string, userId: string): Promise<void> {
    await this.perUser.giveBack(userId);
    await this.perWorkspace.giveBack(organizationId);
  }
}

const refused = (wait: number) => new Throttled(wait, `too many test sends: ${TEST_SEND_REFUSAL}`);
