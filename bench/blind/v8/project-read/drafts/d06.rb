# frozen_string_literal: true

# Releases slot reservations whose hold ran out so the capacity goes back
# to the pool. Scheduled every minute by sidekiq-cron (config/schedule.yml).
class ReleaseExpiredSlotsJob
  include Sidekiq::Job

  sidekiq_options queue: :slots, retry: 3

  # 7 minutes, in seconds. Kept here as well as in SlotReservation so the
  # job can sweep rows created before expires_at was backfilled.
  HOLD_SECONDS = 420

  def perform
    released = 0

    SlotReservation.pending.where(expires_at: nil)
                   .where("created_at < ?", HOLD_SECONDS.seconds.ago)
                   .find_each do |reservation|
      release!(reservation)
      released += 1
    end

    SlotReservation.pending.where("expires_at < ?", Time.current).find_each do |reservation|
      release!(reservation)
      released += 1
    end

    # counts only -- the reservation carries the customer's address, keep it out of here
    Rails.logger.info("[slots] released #{released} expired reservations")
    StatsD.increment("slots.reservations.released", released)
  end

  private

  def release!(reservation)
    SlotReservation.transaction do
      reservation.lock!
      return unless reservation.pending?

      reservation.update!(state: "expired", released_at: Time.current)
      reservation.delivery_slot.increment!(:remaining_capacity)
    end
  end
end
