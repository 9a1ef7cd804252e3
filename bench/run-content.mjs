// Realistic blog posts for npm run bench (bench/run.mjs), generated inside the database in one
// statement, like bench/blog.mjs does: 100,000 posts take seconds, not minutes.
//
// Each post is about 2 kB of HTML in the editor's allowlist (headings, paragraphs, a list, a
// code block, a quote, a link), with a title and description that vary by topic and number.
// One post in seven has an English version. Six in every thousand mention SEARCH_WORD in the
// title, so a search fills a page and has a second one, as in bench/blog.mjs. Posts are one
// an hour going back from 2025-12-31, so the demo posts (2026) stay the newest.

export const SEARCH_WORD = "kubernetes";

const TOPICS = [
  "postgres",
  "redis",
  "docker",
  "node",
  "rails",
  "kafka",
  "terraform",
  "nginx",
  "grpc",
  "observability",
];
const ANGLES = [
  "what broke in production",
  "a checklist",
  "the parts the docs skip",
  "measuring before tuning",
  "lessons from a migration",
  "small wins",
];

const sqlArray = (items) => `array[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(",")}]`;

/** SQL that inserts `n` posts into blog_posts. */
export function insertPostsSql(n) {
  const topic = `(${sqlArray(TOPICS)})[1 + g % ${TOPICS.length}]`;
  const angle = `(${sqlArray(ANGLES)})[1 + (g / ${TOPICS.length}) % ${ANGLES.length}]`;
  const paragraph = (k) =>
    `'<p>Part ' || g || ', note ${k}: working with ' || ${topic} || ' every day means ' ||
     'watching the <strong>slow path</strong> as closely as the fast one. We logged every ' ||
     'request for a week, sorted by p99, and found that ' || (g * ${k} % 97) || ' percent of the ' ||
     'time went to a handful of queries nobody had looked at since the first release.</p>'`;
  const content = `
    '<h2>' || initcap(${topic}) || ': ' || ${angle} || '</h2>' ||
    ${paragraph(1)} ||
    '<h3>What we changed</h3><ul>' ||
      '<li>Measured the <em>baseline</em> on a copy of production data.</li>' ||
      '<li>Added one index at a time, with <code>EXPLAIN (ANALYZE, BUFFERS)</code> before and after.</li>' ||
      '<li>Put a budget on every endpoint: ' || (50 + g % 150) || ' ms at p99.</li>' ||
    '</ul>' ||
    ${paragraph(2)} ||
    '<pre><code>SELECT id, title FROM posts WHERE created_at &lt; now() ORDER BY created_at DESC LIMIT ' || (5 + g % 20) || ';</code></pre>' ||
    '<blockquote><p>Make the common case fast and the rare case correct.</p></blockquote>' ||
    ${paragraph(3)} ||
    '<p>More in the <a href="https://www.postgresql.org/docs/current/using-explain.html">PostgreSQL manual</a>.</p>'`;
  return `
  insert into blog_posts (title, description, content, content_en, created_at, updated_at)
  select
    initcap(${topic}) || ': ' || ${angle} || ', part ' || g ||
      case when g % 1000 between 1 and 6 then ' on ${SEARCH_WORD}' else '' end,
    'Notes on ' || ${topic} || ' from a backend developer: ' || ${angle} ||
      ', with the numbers from part ' || g || '.',
    ${content},
    case when g % 7 = 0 then '<h2>In English</h2>' || ${paragraph(4)} end,
    timestamptz '2025-12-31 09:00:00+00' - g * interval '1 hour',
    timestamptz '2025-12-31 09:00:00+00' - g * interval '1 hour'
  from generate_series(1, ${n}) g`;
}

/**
 * Adds `n` posts to an open database (a handle from openDatabase in build/server/index.js),
 * then tidies up the way a live site would have: its jobs for them done, vacuumed. Returns the
 * number of posts.
 */
export async function addPosts(database, n) {
  if (n > 0) {
    await database.db.execute(insertPostsSql(n));
    // Each published post queued its federation and Webmention jobs (migrations 0019, 0020): a live
    // site with these posts sent them long ago, so the bench does not measure a backlog of
    // 2 jobs a post (one that links to a site this machine cannot reach would fail and retry).
    await database.db.execute(
      "delete from jobs where kind in ('social.post-changed', 'social.webmention-send')",
    );
    await database.db.execute("vacuum analyze blog_posts");
  }
  const result = await database.db.execute("select count(*)::int as n from blog_posts");
  return Number((result.rows ?? result)[0].n);
}
