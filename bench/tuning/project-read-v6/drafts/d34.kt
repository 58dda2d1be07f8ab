package app.pennywise.session

import android.content.Context
import androidx.security.crypto.EncryptedSharedPreferences
import androidx.security.crypto.MasterKey
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds
import timber.log.Timber

/** Token store + idle lock. Plain SharedPreferences are deliberately not used here. */
class SecureSession(context: Context) {
    companion object {
        val IDLE_TIMEOUT: Duration = 180.seconds
    }

    private val masterKey = MasterKey.Builder(context)
        .setKeyScheme(MasterKey.KeyScheme.AES256_GCM)
        .build()

    private val prefs = EncryptedSharedPreferences.create(
        context,
        "secure_session",
        masterKey,
        EncryptedSharedPreferences.PrefKeyEncryptionScheme.AES256_SIV,
        EncryptedSharedPreferences.PrefValueEncryptionScheme.AES256_GCM,
    )

    fun save(token: String, iban: String) {
        prefs.edit().putString("access_token", token).apply()
        Timber.i("session saved for account ****%s", iban.takeLast(4))
    }

    fun token(): String? = prefs.getString("access_token", null)
}
