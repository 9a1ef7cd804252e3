/**
 * Demo content seeded once into an empty database (SEED_DEMO). Replace or delete it for a real
 * site: experience and education then live in the database and are edited there.
 */

export type DemoContent = {
  experiences: {
    title: string;
    company: string;
    from: string;
    to: string | null;
    current: boolean;
  }[];
  education: {
    degree: string;
    institution: string;
    from: string;
    to: string | null;
    current: boolean;
  }[];
  posts: { title: string; description: string; content: string; createdAt: string }[];
};

export const demoContent: DemoContent = {
  experiences: [
    {
      title: "Senior Backend Developer",
      company: "Liffey Systems",
      from: "2023-03",
      to: null,
      current: true,
    },
    {
      title: "Backend Developer",
      company: "Harbour Payments",
      from: "2021-01",
      to: "2023-02",
      current: false,
    },
    {
      title: "Junior Software Developer",
      company: "Grand Canal Labs",
      from: "2019-06",
      to: "2020-12",
      current: false,
    },
  ],
  education: [
    {
      degree: "MSc in Data Analytics",
      institution: "Dublin City College",
      from: "2024-09",
      to: null,
      current: true,
    },
    {
      degree: "BSc in Computer Science",
      institution: "Technological University of the Midlands",
      from: "2015-09",
      to: "2019-06",
      current: false,
    },
  ],
  posts: [
    {
      title: "Designing idempotent REST APIs",
      description:
        "Why every POST that moves money should be safe to retry, and how an idempotency key makes it so.",
      content:
        "<h2>Retries are a fact of life</h2><p>Networks drop responses, not just requests. A client that retries a <strong>payment</strong> must not pay twice.</p><ul><li>Accept an <code>Idempotency-Key</code> header.</li><li>Store the first response under that key.</li><li>Replay it for every repeat.</li></ul><blockquote><p>Make the second call boring.</p></blockquote>",
      createdAt: "2026-01-12T09:00:00Z",
    },
    {
      title: "PostgreSQL indexes I reach for first",
      description:
        "B-tree, partial and expression indexes: the three that solve most slow queries in a web backend.",
      content:
        "<h2>Start with the query plan</h2><p>Run <code>EXPLAIN (ANALYZE, BUFFERS)</code> before adding anything.</p><pre><code>CREATE INDEX orders_open_idx ON orders (created_at) WHERE status = 'open';</code></pre><p>A <em>partial</em> index keeps the hot rows small.</p>",
      createdAt: "2026-02-03T09:00:00Z",
    },
    {
      title: "Background jobs with SKIP LOCKED",
      description:
        "A job queue in plain PostgreSQL that any number of workers can share without stepping on each other.",
      content:
        "<p>Before reaching for a broker, try the database you already run.</p><pre><code>SELECT id FROM jobs WHERE run_at &lt;= now() ORDER BY run_at FOR UPDATE SKIP LOCKED LIMIT 10;</code></pre><ol><li>Claim a batch inside a transaction.</li><li>Do the work.</li><li>Mark it done, or schedule a retry with backoff.</li></ol>",
      createdAt: "2026-03-17T09:00:00Z",
    },
    {
      title: "Caching with Redis without lying to users",
      description: "",
      content:
        "<p>A cache is a copy, and copies go stale. Decide <strong>who invalidates</strong> before deciding what to cache.</p><h3>Rules I keep</h3><ul><li>Cache reads that are expensive and shared.</li><li>Invalidate on write, in the same code path.</li><li>Put a TTL on everything anyway.</li></ul>",
      createdAt: "2026-05-08T09:00:00Z",
    },
    {
      title: "Shipping Rails and Node services with Docker",
      description: "Small images, reproducible builds and a health check that means something.",
      content:
        "<h2>Multi-stage builds</h2><p>Build in one stage, run in a slim one. Keep <s>secrets</s> out of layers.</p><h3>Health checks</h3><p>A <code>/healthz</code> that asks the database is worth more than one that answers 200 from memory.</p>",
      createdAt: "2026-07-21T09:00:00Z",
    },
    {
      title: "From sensor to dashboard on AWS",
      description:
        "Wiring a small hardware project to the cloud: MQTT in, a time series out, and alerts that wake the right person.",
      content:
        '<p>A hobby project that taught me more about backpressure than any job.</p><ol><li>Devices publish readings over MQTT.</li><li>A consumer batches them into PostgreSQL.</li><li>A dashboard reads one-minute rollups.</li></ol><p>Read more on <a href="https://aws.amazon.com/iot/">AWS IoT</a>.</p>',
      createdAt: "2026-09-30T09:00:00Z",
    },
    {
      title: "What I learned moving to Dublin as a developer",
      description:
        "Meetups, the job market and the weather: notes from my first two years in the city.",
      content:
        "<h1>Notes from Dublin</h1><p>The tech community here is <em>generous</em>: meetups most weeks, and people happy to review a CV over coffee.</p><p>Bring a good rain jacket.</p>",
      createdAt: "2026-11-02T09:00:00Z",
    },
  ],
};
