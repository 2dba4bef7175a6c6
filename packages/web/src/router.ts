import { useEffect, useState } from "react"

/** Client routes under the app's base (/app): the server answers index.html for each. */
export const base = "/app"

export type Route = "sign-in" | "sign-in-email" | "inbox" | "console" | "consent" | "not-found"
  // Issue 31 screens (packages/web/src/screens/).
  | "security" | "periods" | "close" | "reports" | "consents" | "claim"
  // Issue 30: integrations and migrations.
  | "sources"
  // Issue 26: the public W-9 form a vendor's mailed link opens (no sign-in).
  | "w9"

export const routeOf = (pathname: string): Route => {
  const path = pathname.startsWith(base) ? pathname.slice(base.length) : pathname
  if (/^\/w9\/[^/]+\/?$/u.test(path)) return "w9"
  switch (path.replace(/\/+$/, "")) {
    case "":
    case "/inbox":
      return "inbox"
    case "/sign-in":
      return "sign-in"
    case "/sign-in/email":
      return "sign-in-email"
    case "/console":
      return "console"
    case "/connect":
    case "/consent":
      return "consent"
    case "/security":
      return "security"
    case "/periods":
      return "periods"
    case "/close":
      return "close"
    case "/reports":
      return "reports"
    case "/consents":
      return "consents"
    case "/claim":
      return "claim"
    case "/sources":
      return "sources"
    default:
      return "not-found"
  }
}

/** The W-9 link's token, from `/app/w9/<token>`. */
export const w9TokenOf = (pathname: string): string => decodeURIComponent(pathname.replace(/\/+$/u, "").split("/").at(-1) ?? "")

export const navigate = (to: string) => {
  window.history.pushState(null, "", `${base}${to}`)
  window.dispatchEvent(new PopStateEvent("popstate"))
}

/** The current location, re-rendered on navigation. */
export const useLocation = () => {
  const [location, setLocation] = useState(() => ({ pathname: window.location.pathname, search: window.location.search }))
  useEffect(() => {
    const update = () => setLocation({ pathname: window.location.pathname, search: window.location.search })
    window.addEventListener("popstate", update)
    return () => window.removeEventListener("popstate", update)
  }, [])
  return location
}
