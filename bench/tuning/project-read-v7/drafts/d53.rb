class Subscription < ApplicationRecord
  belongs_to :customer
  belongs_to :box_size
  has_many :deliveries, dependent: :restrict_with_error

  enum :frequency, { weekly: 0, fortnightly: 1 }, validate: true

  monetize :price_cents

  default_scope { where(archived_at: nil) }

  scope :due_for_billing, ->(on) { where(next_billing_on: ..on) }
  scope :paused, -> { where.not(paused_until: nil).where(paused_until: Date.current..) }

  validates :price_cents, numericality: { only_integer: true, greater_than: 0 }
  validates :starts_on, presence: true

  def archive!(by:)
    update!(archived_at: Time.current, archived_by: by)
  end

  def pause!(until_date)
    raise ArgumentError, "pause must end in the future" if until_date <= Date.current

    update!(paused_until: until_date)
  end

  def next_delivery_on(from: Date.current)
    step = weekly? ? 7 : 14
    offset = (from - starts_on).to_i % step
    offset.zero? ? from : from + (step - offset)
  end
end
