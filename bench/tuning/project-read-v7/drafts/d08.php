<?php

namespace Tests\Feature\Api;

use App\Models\School;
use App\Models\SchoolApiToken;
use Illuminate\Foundation\Testing\RefreshDatabase;
use Tests\TestCase;

class ParentExportThrottleTest extends TestCase
{
    use RefreshDatabase;

    private School $school;

    private string $token;

    protected function setUp(): void
    {
        parent::setUp();

        $this->school = School::factory()->create(['timezone' => 'Europe/London']);
        $this->token = SchoolApiToken::issueFor($this->school)->plainText;
    }

    public function test_a_school_can_make_120_requests_in_a_minute(): void
    {
        for ($i = 0; $i < 120; $i++) {
            $this->withToken($this->token)
                ->getJson('/api/parent/export?week=A')
                ->assertOk();
        }
    }

    public function test_the_121st_request_is_throttled(): void
    {
        for ($i = 0; $i < 120; $i++) {
            $this->withToken($this->token)->getJson('/api/parent/export?week=A');
        }

        $this->withToken($this->token)
            ->getJson('/api/parent/export?week=A')
            ->assertStatus(429)
            ->assertHeader('Retry-After');
    }

    public function test_limits_are_per_school_token(): void
    {
        $other = SchoolApiToken::issueFor(School::factory()->create())->plainText;

        for ($i = 0; $i < 120; $i++) {
            $this->withToken($this->token)->getJson('/api/parent/export?week=A');
        }

        $this->withToken($other)->getJson('/api/parent/export?week=A')->assertOk();
    }
}
