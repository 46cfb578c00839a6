/** A schedule input the user got wrong; services report it as `invalid` with this message. */
export class ScheduleInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScheduleInputError';
  }
}
