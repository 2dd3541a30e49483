// The your-move badge (page title and tab icon) on any page; on a game page, for the other
// tables (this one shows its own turn).
import { startBadge } from "./mine.js";

const m = location.pathname.match(/^\/g\/([0-9a-f]+)/);
startBadge(m ? m[1] : null);
