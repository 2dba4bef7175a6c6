import { useEffect, useState } from "react"

/** Client routes under the app's base (/app): the server answers index.html for each. */
export const base = "/app"

export type Route = "sign-in" | "sign-in-email" | "inbox" | "console" | "consent" | "not-found"

export const routeOf = (pathname: string): Route => {
  const path = pathname.startsWith(base) ? pathname.slice(base.length) : pathname
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
    default:
      return "not-found"
  }
}

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
