# Skips one upcoming delivery, as long as the box contents haven't locked yet.
#
#   result = SkipDelivery.call(delivery: delivery, customer: current_customer)
#   result.success? # => true / false, result.error # => :locked, ...
class SkipDelivery
  LOCK_BEFORE = 3.days

  def self.call(delivery:, customer:, now: Time.current)
    new(delivery:, customer:, now:).call
  end

  def initialize(delivery:, customer:, now:)
    @delivery = delivery
    @customer = customer
    @now = now
  end

  def call
    return Result.failure(:not_yours) unless @delivery.subscription.customer_id == @customer.id
    return Result.failure(:already_skipped) if @delivery.skipped_at?
    return Result.failure(:locked) if locked?

    Delivery.transaction do
      @delivery.update!(skipped_at: @now)
      @customer.credits.create!(
        amount_cents: @delivery.box_price_cents,
        reason: "skipped_delivery",
        delivery: @delivery
      )
    end

    Result.success(@delivery)
  end

  private

  def locked?
    @now >= lock_time
  end

  def lock_time
    @delivery.delivery_on.in_time_zone(Farm.time_zone).beginning_of_day - LOCK_BEFORE
  end
end
