package at.hochjoch.piste.passes

import java.time.Instant
import java.time.LocalTime
import java.time.ZoneId

data class LiftHours(val open: LocalTime, val close: LocalTime)

private val VIENNA: ZoneId = ZoneId.of("Europe/Vienna")

fun validity(firstUse: Instant, days: Int, hours: LiftHours): Pair<Instant, Instant> {
    require(days >= 1) { "days must be >= 1" }
    val day1 = firstUse.atZone(VIENNA).toLocalDate()
    val from = day1.atTime(hours.open).atZone(VIENNA).toInstant()
    val to = day1.plusDays(days - 1L).atTime(hours.close).atZone(VIENNA).toInstant()
    return from to to
}
