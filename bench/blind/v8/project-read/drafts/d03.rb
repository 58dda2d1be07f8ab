# frozen_string_literal: true

module Api
  module V1
    class SlotsController < ApplicationController
      before_action :authenticate_customer!

      HOLD_DURATION = 10.minutes

      def index
        slots = DeliverySlot.upcoming.for_postcode(params.require(:postcode))
        render json: slots.map { |s| serialize_slot(s) }
      end

      def reserve
        slot = DeliverySlot.find(params[:id])
        Rails.logger.info("reserving slot #{slot.id} for #{current_customer.phone} (#{current_customer.default_address&.postcode})")

        reservation = SlotReservation.transaction do
          slot.lock!
          raise SlotFullError if slot.remaining_capacity <= 0

          SlotReservation.create!(
            delivery_slot: slot,
            customer: current_customer,
            expires_at: Time.current + HOLD_DURATION
          )
        end

        render json: { reservation_id: reservation.id, expires_at: reservation.expires_at.iso8601 }, status: :created
      rescue SlotFullError
        render json: { error: "slot_full" }, status: :conflict
      end

      private

      def serialize_slot(slot)
        {
          id: slot.id,
          starts_at: slot.starts_at.iso8601,
          ends_at: slot.ends_at.iso8601,
          remaining: slot.remaining_capacity,
          fee: slot.fee_cents / 100.0
        }
      end
    end
  end
end
