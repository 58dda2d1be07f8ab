-- booked interval per contact, used by the conflict report
CREATE OR REPLACE VIEW booked_contact AS
SELECT p.id,
       p.station_id,
       p.norad_id,
       p.aos - interval '45 seconds' AS booked_from,
       p.los + interval '45 seconds' AS booked_to
FROM pass p
WHERE p.status = 'booked';
