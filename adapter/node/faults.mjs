// The scripted store failure both hosts raise for an armed fault, and how
// to recognise it when an implementation passes it on: a command or tool
// that fails because its append failed replies so by design, which is not
// an exception inside the implementation (protocol exception flag).

const ARMED = Symbol.for('plankit.armedFault')

/** Mark error as the store failure of an armed fault and return it. */
export function armedFault (error) {
  error[ARMED] = true
  return error
}

/** Whether error is (or was caused by) an armed fault's store failure. */
export function isArmedFault (error) {
  for (let e = error, depth = 0; e != null && depth < 8; e = e.cause, depth++) {
    if (typeof e === 'object' && e[ARMED] === true) return true
  }
  return false
}
