<?php

namespace App\Services\Timetable;

use App\Models\Period;
use App\Models\Teacher;
use Spatie\Browsershot\Browsershot;
use Spatie\LaravelPdf\Enums\Format;
use Spatie\LaravelPdf\Facades\Pdf;
use Spatie\LaravelPdf\PdfBuilder;

/**
 * Weekly timetable PDF for one teacher.
 *
 * Chromium runs in the pdf-renderer container; we talk to it over the network
 * instead of shipping a browser in the fpm image. (This used to be dompdf and it
 * mangled the rowspans on two-page weeks, hence the detour.)
 */
class TeacherPdfExporter
{
    public function __construct(private readonly WeekGridBuilder $grid)
    {
    }

    public function forTeacher(Teacher $teacher, string $week): PdfBuilder
    {
        $periods = Period::query()
            ->where('teacher_id', $teacher->id)
            ->where('week', $week)
            ->with(['subject', 'room', 'schoolClass'])
            ->orderBy('day_of_week')
            ->orderBy('start_time')
            ->get();

        return Pdf::view('pdf.teacher-week', [
                'teacher' => $teacher,
                'week' => $week,
                'grid' => $this->grid->build($periods),
                'timezone' => $teacher->school->timezone,
            ])
            ->format(Format::A4)
            ->landscape()
            ->withBrowsershot(function (Browsershot $browsershot) {
                $browsershot->setRemoteInstance(
                    config('services.pdf_renderer.host'),
                    (int) config('services.pdf_renderer.port'),
                );
            })
            ->name($this->fileName($teacher, $week));
    }

    private function fileName(Teacher $teacher, string $week): string
    {
        return sprintf(
            'timetable-%s-week-%s.pdf',
            str($teacher->initials)->lower(),
            strtolower($week),
        );
    }
}
