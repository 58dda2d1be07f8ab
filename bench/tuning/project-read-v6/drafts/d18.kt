package no.clinicslot.booking

import jakarta.persistence.Column
import jakarta.persistence.Entity
import jakarta.persistence.Id
import jakarta.persistence.Table
import jakarta.persistence.Version
import org.springframework.orm.ObjectOptimisticLockingFailureException
import org.springframework.stereotype.Service
import java.time.Instant
import java.util.UUID

@Entity
@Table(name = "appointments")
class AppointmentEntity(
    @Id val id: UUID = UUID.randomUUID(),
    @Column(name = "provider_id") val providerId: UUID,
    @Column(name = "starts_at") val startsAt: Instant,
    @Column(name = "patient_id") var patientId: UUID? = null,
    @Version var version: Long = 0,
)

sealed interface BookingResult {
    data class Booked(val appointmentId: UUID) : BookingResult
    data object SlotTaken : BookingResult
}

@Service
class BookingService(private val repo: AppointmentRepository) {
    fun book(slotId: UUID, patientId: UUID): BookingResult {
        val slot = repo.findById(slotId).orElseThrow()
        if (slot.patientId != null) return BookingResult.SlotTaken
        slot.patientId = patientId
        return try {
            repo.saveAndFlush(slot)
            BookingResult.Booked(slot.id)
        } catch (e: ObjectOptimisticLockingFailureException) {
            BookingResult.SlotTaken
        }
    }
}
