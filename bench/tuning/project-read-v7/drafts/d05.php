<?php

use Carbon\CarbonImmutable;
use Illuminate\Database\Migrations\Migration;
use Illuminate\Database\Schema\Blueprint;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Schema;

return new class extends Migration
{
    /**
     * Store period times as UTC instants so the parent app stops drifting
     * by an hour after the clocks change.
     */
    public function up(): void
    {
        Schema::table('periods', function (Blueprint $table) {
            $table->timestamp('starts_at_utc')->nullable()->after('day_of_week');
            $table->timestamp('ends_at_utc')->nullable()->after('starts_at_utc');
        });

        DB::table('periods')
            ->join('schools', 'schools.id', '=', 'periods.school_id')
            ->select('periods.id', 'periods.start_time', 'periods.end_time', 'schools.timezone')
            ->orderBy('periods.id')
            ->chunk(2000, function ($rows) {
                foreach ($rows as $row) {
                    DB::table('periods')->where('id', $row->id)->update([
                        'starts_at_utc' => CarbonImmutable::parse('2025-01-06 '.$row->start_time, $row->timezone)->utc(),
                        'ends_at_utc' => CarbonImmutable::parse('2025-01-06 '.$row->end_time, $row->timezone)->utc(),
                    ]);
                }
            });

        Schema::table('periods', function (Blueprint $table) {
            $table->dropColumn(['start_time', 'end_time']);
        });
    }

    public function down(): void
    {
        Schema::table('periods', function (Blueprint $table) {
            $table->time('start_time')->nullable();
            $table->time('end_time')->nullable();
        });

        Schema::table('periods', function (Blueprint $table) {
            $table->dropColumn(['starts_at_utc', 'ends_at_utc']);
        });
    }
};
