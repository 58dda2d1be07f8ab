package tally.attribution

import java.sql.Timestamp
import java.time.Instant

import com.github.mrpowers.spark.fast.tests.DatasetComparer
import org.apache.spark.sql.SparkSession
import org.scalatest.funsuite.AnyFunSuite
import tally.schema.{ConversionRow, TouchRow}

// spark-fast-tests only: spark-testing-base dragged a second Spark onto the test classpath.
class LastTouchSpec extends AnyFunSuite with DatasetComparer {

  private lazy val spark = SparkSession.builder()
    .master("local[2]")
    .appName("LastTouchSpec")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .getOrCreate()

  import spark.implicits._

  private def at(iso: String): Timestamp = Timestamp.from(Instant.parse(iso))

  private val conversion = ConversionRow("u1", 42L, "order-1", 19_990_000L, "203.0.113.0-hash", at("2025-11-20T10:00:00Z"))

  test("a click 10 days before the conversion is attributed") {
    val touches = Seq(TouchRow("u1", 42L, 7L, "click", at("2025-11-10T10:00:00Z"))).toDS()
    val result = LastTouch.attribute(touches, Seq(conversion).toDS()).collect()
    assert(result.map(_.campaign_id).toSeq == Seq(7L))
  }

  test("a click 15 days before is outside the lookback") {
    val touches = Seq(TouchRow("u1", 42L, 7L, "click", at("2025-11-05T09:59:00Z"))).toDS()
    assert(LastTouch.attribute(touches, Seq(conversion).toDS()).isEmpty)
  }

  test("a click beats a more recent view") {
    val touches = Seq(
      TouchRow("u1", 42L, 7L, "click", at("2025-11-18T08:00:00Z")),
      TouchRow("u1", 42L, 9L, "view", at("2025-11-20T09:30:00Z"))
    ).toDS()
    assert(LastTouch.attribute(touches, Seq(conversion).toDS()).collect().map(_.touch_type).toSeq == Seq("click"))
  }

  test("duplicate orders keep the earliest conversion") {
    val reload = conversion.copy(event_ts = at("2025-11-20T10:04:00Z"))
    val deduped = LastTouch.dedupe(Seq(reload, conversion).toDS())
    assertSmallDatasetEquality(deduped, Seq(conversion).toDS(), ignoreNullable = true)
  }
}
