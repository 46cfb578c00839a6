import type { Command } from 'commander';
import type { Config } from '../config';

/** `klaxon schedule …` and `klaxon oncall`: on-call schedules. */
export function registerScheduleCommands(_program: Command, _getConfig: () => Config): void {}
