package com.example.auth

import java.time.Duration
import java.time.Instant
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock

/**
 * Keeps user sessions in memory and expires them after [ttl].
 */
data class Session(val id: String, val userId: Long, val createdAt: Instant)

sealed class LookupResult {
    data class Found(val session: Session) : LookupResult()
    object Expired : LookupResult()
    object Missing : LookupResult()
}

class SessionRepository(
    private val ttl: Duration = Duration.ofHours(12),
    private val clock: () -> Instant = Instant::now,
) {
    private val sessions = mutableMapOf<String, Session>()
    private val mutex = Mutex()

    suspend fun create(userId: Long): Session = mutex.withLock {
        val session = Session(id = newId(), userId = userId, createdAt = clock())
        sessions[session.id] = session
        session
    }

    suspend fun lookup(id: String?): LookupResult {
        if (id.isNullOrBlank()) return LookupResult.Missing
        val session = mutex.withLock { sessions[id] } ?: return LookupResult.Missing
        val age = Duration.between(session.createdAt, clock())
        return when {
            age > ttl -> {
                mutex.withLock { sessions.remove(id) }
                LookupResult.Expired
            }
            else -> LookupResult.Found(session)
        }
    }

    fun activeCount(userId: Long): Int =
        sessions.values.count { it.userId == userId && !isExpired(it) }

    private fun isExpired(session: Session): Boolean =
        Duration.between(session.createdAt, clock()) > ttl

    private fun newId(): String {
        val bytes = ByteArray(16).also { java.security.SecureRandom().nextBytes(it) }
        return bytes.joinToString("") { "%02x".format(it) }
    }

    companion object {
        const val COOKIE_NAME = "sid"
        internal var created: Int = 0
    }
}

fun main() {
    val (name, count) = Pair("sessions", 3)
    val repository = SessionRepository(ttl = Duration.ofMinutes(30))
    println("Tracking $count $name for ${repository.activeCount(42L)} users, cookie '${SessionRepository.COOKIE_NAME}'")
    val ratio: Double? = null
    println(ratio ?: 0.5)
}
