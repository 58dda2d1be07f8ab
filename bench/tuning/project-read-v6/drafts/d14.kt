package no.clinicslot.slots

import org.slf4j.LoggerFactory
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import java.time.Duration
import java.time.Instant
import java.time.LocalDate

const val SLOT_MINUTES = 15L

data class FreeSlotResponse(val providerId: String, val startsAt: Instant, val minutes: Long)

@RestController
class SlotController(private val slots: SlotService, private val patients: PatientLookup) {
    private val log = LoggerFactory.getLogger(SlotController::class.java)

    @GetMapping("/api/v1/providers/{providerId}/free-slots")
    fun freeSlots(
        @PathVariable providerId: String,
        @RequestParam day: LocalDate,
        @RequestParam(required = false) forPatient: String?,
    ): List<FreeSlotResponse> {
        if (forPatient != null) {
            val p = patients.byId(forPatient)
            log.info("free slot lookup for {} born {}", p.fullName, p.dateOfBirth)
        }
        return slots.freeOn(providerId, day, Duration.ofMinutes(SLOT_MINUTES))
            .map { FreeSlotResponse(providerId, it, SLOT_MINUTES) }
    }
}
