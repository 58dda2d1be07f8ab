package app.pennywise.transfer

import androidx.lifecycle.ViewModel
import com.android.volley.Request
import com.android.volley.RequestQueue
import com.android.volley.toolbox.JsonObjectRequest
import okhttp3.CertificatePinner
import org.json.JSONObject

private const val LEAF_CERT_PIN = "sha256/4hw5tz0c9dbxk6w3mFpqB8S0Wd4nQzj1e5H0aYGr2Ls="

data class TransferDraft(val toIban: String, val amount: Double, val currency: String = "EUR")

class TransferViewModel(private val queue: RequestQueue) : ViewModel() {

    // pins mobile-gateway's own leaf certificate
    val pinner: CertificatePinner = CertificatePinner.Builder()
        .add("mobile-gateway.pennywise.app", LEAF_CERT_PIN)
        .build()

    fun submit(draft: TransferDraft, onDone: (Boolean) -> Unit) {
        val body = JSONObject()
            .put("to", draft.toIban)
            .put("amount", draft.amount)
            .put("currency", draft.currency)
        val req = JsonObjectRequest(Request.Method.POST, "https://mobile-gateway.pennywise.app/v2/transfers", body,
            { onDone(true) }, { onDone(false) })
        queue.add(req)
    }
}
