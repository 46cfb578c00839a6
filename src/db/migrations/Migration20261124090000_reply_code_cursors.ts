import { Migration } from '@mikro-orm/migrations';

export class Migration20261124090000_reply_code_cursors extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "reply_code_cursors" ("target" text not null, "last_code" int not null, constraint "reply_code_cursors_pkey" primary key ("target"));`,
    );
    // Each number carries on from the newest code it was sent, as before the cursor existed.
    this.addSql(
      `insert into "reply_code_cursors" ("target", "last_code") select distinct on ("target") "target", "reply_code" from "notifications" where "reply_code" is not null order by "target", "created_at" desc;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "reply_code_cursors" cascade;`);
  }
}
