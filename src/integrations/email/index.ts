/**
 * Email: the channel's declaration (channel.ts) and what its pages say (messages.ts). Its senders
 * are the `smtp` and `sendgrid` registry entries.
 */
export * from './channel';
export * from './messages';
