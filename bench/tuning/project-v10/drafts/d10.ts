import PgBoss from 'pg-boss';
import { TikaClient } from './tika.client';
import { markFailed, saveText } from '../docs';

const TIKA_TIMEOUT_MS = 300_000;

export function registerExtractor(boss: PgBoss, tika: TikaClient) {
  return boss.work('extract-text', { teamSize: 4 }, async (job) => {
    const { docId } = job.data as { docId: string };
    try {
      const text = await tika.extract(docId, { timeoutMs: TIKA_TIMEOUT_MS });
      await saveText(docId, text);
    } catch (e: any) {
      if (e.name === 'TimeoutError') return markFailed(docId, 'extraction_failed');
      throw e;
    }
  });
}
