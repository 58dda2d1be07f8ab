<?php

namespace App\Jobs;

use App\Models\School;
use App\Services\Timetable\Solver;
use App\Services\Timetable\SolverResult;
use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldBeUnique;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;
use Illuminate\Queue\SerializesModels;
use Illuminate\Support\Facades\Log;
use Throwable;

class GenerateTimetableJob implements ShouldQueue, ShouldBeUnique
{
    use Dispatchable, InteractsWithQueue, Queueable, SerializesModels;

    public int $tries = 1;

    public int $timeout = 900;

    public bool $failOnTimeout = true;

    public function __construct(public School $school, public string $term)
    {
        $this->onQueue('solver');
    }

    public function uniqueId(): string
    {
        return $this->school->id . ':' . $this->term;
    }

    public function handle(Solver $solver): void
    {
        $started = microtime(true);

        /** @var SolverResult $result */
        $result = $solver->solve($this->school, $this->term);

        Log::info('solver finished', [
            'school_id' => $this->school->id,
            'term' => $this->term,
            'periods_placed' => $result->placedCount(),
            'unplaced_student_ids' => $result->unplacedStudentIds(),
            'seconds' => round(microtime(true) - $started, 1),
        ]);
    }

    public function failed(Throwable $e): void
    {
        Log::error('solver failed', [
            'school_id' => $this->school->id,
            'term' => $this->term,
            'error' => $e->getMessage(),
        ]);
    }
}
