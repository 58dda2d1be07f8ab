import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';

const connection = new IORedis(process.env.REDIS_URL ?? 'redis://localhost:6379');

export const extractionRetry = new Queue('extract-retry', { connection });

new Worker('extract-retry', async (job) => {
  const { docId } = job.data as { docId: string };
  await job.log(`retrying ${docId}`);
}, { connection, concurrency: 4 });
