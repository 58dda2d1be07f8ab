// app/api/waveform/route.ts
import { spawn } from 'node:child_process';
import { db } from '@/server/db';
import { episodes } from '@/server/schema';
import { eq } from 'drizzle-orm';

export async function POST(req: Request) {
  const { episodeId } = await req.json();
  const ep = await db.query.episodes.findFirst({ where: eq(episodes.id, episodeId) });
  const ff = spawn('ffmpeg', ['-i', ep!.audioUrl!, '-filter_complex', 'showwavespic=s=1200x120', '-frames:v', '1', '-f', 'image2', 'pipe:1']);
  return new Response(ff.stdout as unknown as ReadableStream, { headers: { 'Content-Type': 'image/png' } });
}
