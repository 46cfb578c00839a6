import { Migration } from '@mikro-orm/migrations';

/** Customer API tokens get an optional name (the dashboard's `POST /api/tokens {name?}`), so people can tell them apart. */
export class Migration20261130100100_api_token_names extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "api_tokens" add column "name" varchar(100) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "api_tokens" drop column "name";`);
  }
}
