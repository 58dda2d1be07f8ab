class DeliveriesController < ApplicationController
  before_action :authenticate_customer!
  before_action :set_delivery, only: %i[show skip unskip]

  def index
    @deliveries = current_customer.subscription.deliveries
                                  .upcoming
                                  .includes(:box)
                                  .order(:delivery_on)
  end

  def show
  end

  def skip
    if @delivery.delivery_on.beginning_of_day - 48.hours < Time.current
      redirect_to @delivery, alert: t(".too_late") and return
    end

    @delivery.update!(skipped_at: Time.current)

    if @delivery.mollie_payment_id.present?
      Mollie::Payment::Refund.create(
        payment_id: @delivery.mollie_payment_id,
        amount: { value: format("%.2f", @delivery.box.price_cents / 100.0), currency: "EUR" },
        description: "Skipped delivery #{@delivery.delivery_on}"
      )
    end

    redirect_to deliveries_path, notice: t(".skipped")
  end

  def unskip
    @delivery.update!(skipped_at: nil)
    redirect_to deliveries_path, notice: t(".unskipped")
  end

  private

  def set_delivery
    @delivery = current_customer.deliveries.find(params[:id])
  end
end
