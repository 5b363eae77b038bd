// The S3-compatible service of `npm run bench:storage -- --backend s3`: s3rver (as the storage tests start it) on
// 127.0.0.1 with one bucket, `basalt`, keeping its objects in the folder given. In a process of its own, so that its
// CPU is neither Basalt's nor the load generator's.
import fs from 'node:fs';
import S3rver from 's3rver';

const directory = process.argv[2];
fs.mkdirSync(directory, { recursive: true });
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory,
  configureBuckets: [{ name: 'basalt', configs: [] }],
});
const { port } = await server.run();
console.log(`S3 listening at http://127.0.0.1:${port}`);
