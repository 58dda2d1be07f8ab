class DeliveryReminderJob
  include Sidekiq::Job
  sidekiq_options queue: :reminders, retry: 3

  # Morning of delivery day, customer's local time.
  SEND_AT_HOUR = 7

  def self.schedule_for(delivery)
    zone = delivery.subscription.customer.time_zone
    send_at = delivery.delivery_on.in_time_zone(zone).change(hour: SEND_AT_HOUR)
    perform_at(send_at, delivery.id) if send_at.future?
  end

  def perform(delivery_id)
    delivery = Delivery.includes(subscription: :customer).find_by(id: delivery_id)
    return if delivery.nil? || delivery.skipped_at.present? || delivery.reminder_sent_at.present?

    customer = delivery.subscription.customer
    return unless customer.sms_opt_in? && customer.phone.present?

    body = I18n.t(
      "sms.delivery_reminder",
      locale: customer.locale,
      day: I18n.l(delivery.delivery_on, format: :weekday, locale: customer.locale),
      window: delivery.route.time_window
    )

    SmsGateway.deliver(to: customer.phone, body: body)
    delivery.update_columns(reminder_sent_at: Time.current)
  end
end
