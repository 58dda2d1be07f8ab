package at.hochjoch.piste.gates

import at.hochjoch.piste.db.tables.GateEvents
import io.ktor.http.HttpStatusCode
import io.ktor.server.response.respond
import io.ktor.server.routing.Route
import io.ktor.server.routing.get
import org.jetbrains.exposed.sql.SortOrder
import org.jetbrains.exposed.sql.selectAll
import org.jetbrains.exposed.sql.transactions.experimental.newSuspendedTransaction

fun Route.passScans() {
    get("/api/passes/{passId}/scans") {
        val passId = call.parameters["passId"]
            ?: return@get call.respond(HttpStatusCode.BadRequest, "passId missing")
        val rows = newSuspendedTransaction {
            GateEvents.selectAll().where { GateEvents.passId eq passId }
                .orderBy(GateEvents.ts, SortOrder.DESC)
                .limit(500)
                .map { ScanDto(it[GateEvents.gateId], it[GateEvents.ts].toString(), it[GateEvents.decision]) }
        }
        call.respond(rows)
    }
}
