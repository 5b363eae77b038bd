/** GlossaryEntry explains one term: a title, a one-line plain explanation and more detail. */
export interface GlossaryEntry {
  id: string;
  title: string;
  simple: string;
  details: string;
}

/** GLOSSARY holds the onboarding guide's terms. */
export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'api',
    title: 'API',
    simple: 'A way for programs to talk to each other.',
    details:
      'An Application Programming Interface is a set of rules for asking a program for data or actions. Your app uses Basalt’s API to read and write the records in your tables.',
  },
  {
    id: 'database',
    title: 'Database',
    simple: 'An organised place where your app keeps its data.',
    details:
      'A database stores information in tables so it can be searched, updated and kept safe. Basalt runs SQLite by default and PostgreSQL when you need to scale.',
  },
  {
    id: 'backend',
    title: 'Backend',
    simple: 'The part of an app that runs on a server, out of sight.',
    details:
      'The backend stores data, checks who may do what and answers requests from the app people see (the frontend). Basalt is a ready-made backend.',
  },
  {
    id: 'schema',
    title: 'Schema',
    simple: 'The blueprint of a table: its columns and their types.',
    details:
      'A schema lists each column, the kind of value it holds (text, number, date…) and rules such as required or unique. Basalt checks every record against it.',
  },
  {
    id: 'rest',
    title: 'REST',
    simple: 'A common style of web API built on URLs and HTTP verbs.',
    details:
      'REST APIs use GET to read, POST to create, PATCH or PUT to update and DELETE to remove, each on a URL such as /api/customers/42. Basalt creates these for every table.',
  },
  {
    id: 'authentication',
    title: 'Authentication',
    simple: 'Proving who you are, usually by signing in.',
    details:
      'Authentication checks an identity, for example with an email and password. After signing in, the app receives a token it sends with each request.',
  },
  {
    id: 'authorization',
    title: 'Authorization',
    simple: 'Deciding what a signed-in person is allowed to do.',
    details:
      'Once the server knows who you are, authorization decides which tables and records you may read or change. Basalt only ever shows you your own data.',
  },
  {
    id: 'query',
    title: 'Query',
    simple: 'A question you ask the database.',
    details:
      'A query asks for data that matches conditions, such as “all users who joined this week”, optionally sorted and limited to a page of results.',
  },
  {
    id: 'endpoint',
    title: 'Endpoint',
    simple: 'One address of an API that does one job.',
    details:
      'An endpoint is a URL plus an HTTP method, for example GET /api/customers to list customers or POST /api/customers to add one.',
  },
  {
    id: 'webhook',
    title: 'Webhook',
    simple: 'A message one service sends another when something happens.',
    details:
      'Instead of asking repeatedly whether anything changed, you give a service a URL and it calls that URL the moment an event occurs, such as a payment succeeding.',
  },
  {
    id: 'middleware',
    title: 'Middleware',
    simple: 'Code that runs between a request arriving and the answer going out.',
    details:
      'Middleware handles shared jobs for many endpoints, such as checking tokens, logging requests or limiting how often someone may call the API.',
  },
  {
    id: 'cache',
    title: 'Cache',
    simple: 'A short-term copy of data kept close by for speed.',
    details:
      'Caching saves the result of a slow operation so the next request is fast. The console caches what it loads for a few minutes and refreshes it when you return to the tab.',
  },
  {
    id: 'cors',
    title: 'CORS',
    simple: 'Browser rules about which websites may call an API.',
    details:
      'Cross-Origin Resource Sharing lets a server say which other websites may send requests to it from a browser, protecting users from malicious pages.',
  },
  {
    id: 'jwt',
    title: 'JWT',
    simple: 'A signed token that says who you are.',
    details:
      'A JSON Web Token carries claims such as your user id and an expiry time, signed by the server so it cannot be forged. Basalt issues one when you sign in.',
  },
  {
    id: 'orm',
    title: 'ORM',
    simple: 'A library that lets code use database rows as objects.',
    details:
      'An Object-Relational Mapper turns tables and rows into the objects of a programming language, so developers can work with data without writing SQL by hand.',
  },
  {
    id: 'cdn',
    title: 'CDN',
    simple: 'A network of servers that delivers files from near the user.',
    details:
      'A Content Delivery Network keeps copies of images, scripts and other files around the world so they load quickly wherever people are.',
  },
  {
    id: 'serverless',
    title: 'Serverless',
    simple: 'Running code without managing a server yourself.',
    details:
      'With serverless functions you write small pieces of code that run on demand. Basalt’s Edge Functions work this way.',
  },
  {
    id: 'graphql',
    title: 'GraphQL',
    simple: 'An API language where the client asks for exactly the fields it needs.',
    details:
      'GraphQL uses one endpoint and a query describing the shape of the data wanted. It is an alternative to REST, which Basalt uses.',
  },
  {
    id: 'websocket',
    title: 'WebSocket',
    simple: 'A connection that stays open for live, two-way updates.',
    details:
      'Unlike a normal request that ends after one answer, a WebSocket stays open so the server can push changes instantly — Basalt’s schema editor uses one for collaboration.',
  },
];

/** searchGlossary returns the entries whose title or explanations contain the query (case-insensitive). */
export function searchGlossary(query: string, entries: readonly GlossaryEntry[] = GLOSSARY): GlossaryEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...entries];
  return entries.filter((e) => `${e.title} ${e.simple} ${e.details}`.toLowerCase().includes(q));
}
