// worker/src/tasks/transcode-episode.ts (excerpt)
import { spawn } from 'node:child_process';

const LOUDNORM_TARGET = 'I=-16:TP=-1:LRA=11';

export function loudnormSecondPass(measured: Measured): string[] {
  return [
    '-af',
    `loudnorm=${LOUDNORM_TARGET}:measured_I=${measured.input_i}:measured_TP=${measured.input_tp}:measured_LRA=${measured.input_lra}:measured_thresh=${measured.input_thresh}:offset=${measured.target_offset}:linear=true`,
    '-codec:a', 'libmp3lame', '-b:a', '128k', '-ar', '44100', '-ac', '2',
  ];
}
