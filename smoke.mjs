import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
const client = await PGlite.create({ extensions: { pg_trgm, unaccent } });
const db = drizzle({ client });
await migrate(db, { migrationsFolder: "/tmp/mig6" });
await client.exec(`insert into blog_posts (title, content, created_at) values ('Migración rápida','<p>Hola <strong>mun</strong>do &lt;script&gt;</p>', now() - interval '3 day'), ('Tips','x', now()-interval '2 day'), ('Tips 2','y', now()-interval '1 day'), ('Tips','z', now()), ('2024','n', now()), ('New','n', now()), ('¡¡!!','n',now())`);
await migrate(db, { migrationsFolder: "database/migrations" });
console.log((await client.query(`select id, slug, status, published_at is not null pub, search_vector from blog_posts order by id`)).rows);
console.log((await client.query(`select * from post_slugs order by post_id`)).rows, (await client.query(`select * from blog_stats`)).rows);
await client.exec(`insert into blog_posts (title, content) values ('Tips','again')`);
await client.exec(`insert into blog_posts (title, content, status) values ('Draft one','d','draft')`);
console.log((await client.query(`select id, slug, status, published_at from blog_posts where id > 7`)).rows, (await client.query(`select * from blog_stats`)).rows);
await client.exec(`update blog_posts set slug='migracion' where id=1`);
try { await client.exec(`update blog_posts set slug='tips' where id=3`); } catch (e) { console.log("refused:", e.message, e.code, e.constraint); }
try { await client.exec(`update blog_posts set slug='migracion-rapida' where id=2`); } catch (e) { console.log("refused:", e.message); }
await client.exec(`update blog_posts set slug='migracion-rapida' where id=1`);
console.log((await client.query(`select * from post_slugs where post_id=1`)).rows);
console.log((await client.query(`select blog_post_text('<p>A <strong>b</strong>c</p><pre><code><span style="color:#fff">const</span><span> x</span></code></pre>') t`)).rows);
