// Node 20 has no Promise.withResolvers, which dsh-agent, dsh-agent-loop and
// dsh-session-persistence call. This module is imported before any dsh module.
if (typeof Promise.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers () {
      let resolve, reject
      const promise = new this((res, rej) => { resolve = res; reject = rej })
      return { promise, resolve, reject }
    },
  })
}
