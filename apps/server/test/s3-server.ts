import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { S3Config } from '../src/config';
import { createS3Client } from '../src/invoices/s3-blob.store';
import { freePort, isOpen } from './ports';

/**
 * A real S3 server process for one test file: moto's `moto_server` (Python moto 5, part of this machine's image; see
 * the README's "S3 test server"), on its own port, with one empty bucket. It speaks S3's HTTP API — signatures,
 * multipart uploads, `If-None-Match: *` on PUT and on CompleteMultipartUpload, ListMultipartUploads — and keeps the
 * objects in its memory. It is a stand-in for AWS S3, MinIO or Ceph RGW, not one of them: the contract suite is
 * strict all the same.
 */
export interface TestS3 {
  endpoint: string;
  /** The configuration the server's `S3_*` variables give (path-style, test keys, the bucket made here). */
  config: S3Config;
  /** The same as environment variables, for `invoicebox` processes. */
  env: Record<string, string>;
  dispose(): Promise<void>;
}

/** The command that runs moto's server here: `moto_server` on the PATH, or the module through python3. */
function motoCommand(): [string, string[]] {
  if (spawnSync('moto_server', ['--help'], { stdio: 'ignore' }).status === 0) return ['moto_server', []];
  if (spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'ignore' }).status === 0) {
    return ['python3', ['-m', 'moto.server']];
  }
  throw new Error(
    'No S3 test server: moto_server (Python package moto with its server extras: flask, flask-cors) is not installed',
  );
}

export async function startS3(bucket = 'invoicebox-test'): Promise<TestS3> {
  const [command, prefix] = motoCommand();
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(command, [...prefix, '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // No AWS settings of the machine reach the server or change what it accepts.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', MOTO_ALLOW_NONEXISTENT_REGION: 'true' },
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 30_000;
  while (!(await isOpen(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`moto_server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const config: S3Config = {
    endpoint,
    bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test-access-key', secretAccessKey: 'test-secret-key' },
    forcePathStyle: true,
  };
  const client = createS3Client(config);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    endpoint,
    config,
    env: {
      DOCUMENT_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: config.region,
      S3_ACCESS_KEY_ID: 'test-access-key',
      S3_SECRET_ACCESS_KEY: 'test-secret-key',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async dispose() {
      if (child.exitCode !== null) return;
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    },
  };
}
