import type { Command } from 'commander';
import type { Config } from '../config';

/** `klaxon contact|rule|policy|service set-policy`: who is paged, and how. */
export function registerPagingCommands(_program: Command, _getConfig: () => Config): void {}
