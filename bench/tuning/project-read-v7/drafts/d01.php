<?php

namespace App\Livewire;

use App\Models\Period;
use App\Models\SchoolClass;
use Illuminate\Support\Facades\Log;
use Livewire\Attributes\Url;
use Livewire\Component;

class TimetableGrid extends Component
{
    #[Url]
    public int $classId;

    #[Url]
    public string $week = 'A';

    public array $lessons = [];

    public function mount(int $classId): void
    {
        $this->classId = $classId;
        $this->loadGrid();
    }

    public function updatedWeek(): void
    {
        $this->loadGrid();
    }

    public function loadGrid(): void
    {
        $rows = Period::query()
            ->with(['subject', 'room', 'teacher'])
            ->where('school_class_id', $this->classId)
            ->where('week', $this->week)
            ->orderBy('day_of_week')
            ->orderBy('start_time')
            ->get();

        $this->lessons = $rows->groupBy('day_of_week')
            ->map(fn ($day) => $day->map(fn ($p) => [
                'id' => $p->id,
                'subject' => $p->subject->name,
                'room' => $p->room?->code,
                'teacher' => $p->teacher->initials,
                'start' => substr($p->start_time, 0, 5),
                'end' => substr($p->end_time, 0, 5),
            ])->values())
            ->toArray();
    }

    public function markAbsent(int $studentId): void
    {
        $student = SchoolClass::findOrFail($this->classId)->students()->findOrFail($studentId);
        $student->absences()->create(['week' => $this->week]);

        Log::info('absence recorded', ['student' => $student->full_name, 'class' => $this->classId]);
        $this->dispatch('absence-saved');
    }

    public function render()
    {
        return view('livewire.timetable-grid');
    }
}
