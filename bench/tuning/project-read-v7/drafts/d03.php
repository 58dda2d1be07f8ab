<?php

use Illuminate\Support\Str;

return [

    'domain' => env('HORIZON_DOMAIN'),

    'path' => 'ops/horizon',

    'use' => 'default',

    'prefix' => env('HORIZON_PREFIX', Str::slug(env('APP_NAME', 'bellrow'), '_').'_horizon:'),

    // seconds before Horizon shows a queue as "long wait"
    'waits' => [
        'redis:default' => 60,
        'redis:solver' => 1800,
    ],

    'trim' => [
        'recent' => 60,
        'completed' => 60,
        'failed' => 10080,
    ],

    'defaults' => [
        'mail-and-notifications' => [
            'connection' => 'redis',
            'queue' => ['default', 'notifications'],
            'balance' => 'auto',
            'maxProcesses' => 6,
            'tries' => 3,
            'timeout' => 90,
        ],

        // Timetable solving only. Big academies need the full 20 minutes, see GenerateTimetableJob.
        'solver' => [
            'connection' => 'redis-solver',
            'queue' => ['solver'],
            'balance' => 'simple',
            'maxProcesses' => 2,
            'memory' => 1024,
            'tries' => 1,
            'timeout' => 1200,
        ],
    ],

    'environments' => [
        'production' => [
            'mail-and-notifications' => ['maxProcesses' => 10],
            'solver' => ['maxProcesses' => 4],
        ],

        'local' => [
            'mail-and-notifications' => ['maxProcesses' => 2],
            'solver' => ['maxProcesses' => 1],
        ],
    ],
];
