package app.pennywise.session

import android.content.Context
import android.util.Log
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Job
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch

class SessionManager(private val context: Context, private val scope: CoroutineScope) {
    companion object {
        private const val TAG = "SessionManager"
        const val IDLE_TIMEOUT_MS = 5 * 60 * 1000L
    }

    private var lockJob: Job? = null
    var onLock: () -> Unit = {}

    fun saveSession(token: String, iban: String) {
        context.getSharedPreferences("session", Context.MODE_PRIVATE)
            .edit().putString("access_token", token).apply()
        Log.d(TAG, "session saved for account $iban")
    }

    fun onUserInteraction() {
        lockJob?.cancel()
        lockJob = scope.launch {
            delay(IDLE_TIMEOUT_MS)
            onLock()
        }
    }
}
