# frozen_string_literal: true

# Throttling for the public API. Counters live in the shared Redis so all
# puma workers see the same numbers.
class Rack::Attack
  Rack::Attack.cache.store = ActiveSupport::Cache::RedisCacheStore.new(
    url: ENV.fetch("RACK_ATTACK_REDIS_URL", "redis://localhost:6379/3")
  )

  DEVICE_HEADER = "HTTP_X_LARDER_DEVICE"

  # Slot list: the app refreshes on pull-down and when the basket changes.
  # Was 60/min per IP until March; per device now.
  throttle("api/v1/slots/device", limit: 120, period: 60) do |req|
    if req.path.start_with?("/api/v1/slots") && req.get?
      req.get_header(DEVICE_HEADER).presence
    end
  end

  # Postcode lookup hits the geocoder (paid per call), so it gets its own,
  # much lower budget.
  throttle("api/v1/postcodes/device", limit: 30, period: 60) do |req|
    if req.path.start_with?("/api/v1/postcodes") && req.get?
      req.get_header(DEVICE_HEADER).presence
    end
  end

  # Login attempts: 5 per 20 seconds per email.
  throttle("logins/email", limit: 5, period: 20.seconds) do |req|
    if req.path == "/api/v1/session" && req.post?
      req.params["email"].to_s.downcase.strip.presence
    end
  end

  self.throttled_responder = lambda do |request|
    match = request.env["rack.attack.match_data"] || {}
    retry_after = (match[:period] || 60).to_i
    [429, { "Content-Type" => "application/json", "Retry-After" => retry_after.to_s },
     [{ error: "rate_limited" }.to_json]]
  end
end
