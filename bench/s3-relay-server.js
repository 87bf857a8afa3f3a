'use strict';
// The download baseline of bench:engines: the least a relay from the bucket can do, in a process of its
// own as our API is. GET /<key> streams the object through node:http, nothing else (no HEAD, no framework).
const http = require('node:http');
const { S3Client, GetObjectCommand } = require('@aws-sdk/client-s3');

const client = new S3Client({
  endpoint: process.env.S3_ENDPOINT,
  region: process.env.S3_REGION || 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: process.env.S3_ACCESS_KEY_ID, secretAccessKey: process.env.S3_SECRET_ACCESS_KEY },
});
const server = http.createServer(async (req, res) => {
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: process.env.S3_BUCKET, Key: req.url.slice(1) }));
    res.writeHead(200, { 'content-type': object.ContentType, 'content-length': object.ContentLength });
    object.Body.pipe(res);
  } catch {
    res.writeHead(404).end();
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
