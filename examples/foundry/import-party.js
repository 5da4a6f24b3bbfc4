// chargen: import a whole batch into Foundry VTT (brp system, Foundry 13) in one step.
//
// In Foundry: Macros directory > Create Macro > Type "Script", paste this file, save, run it.
// It asks for a party.foundry.json (or party.foundry-npc.json) that `chargen generate ... --format
// foundry -o DIR` wrote, and creates every actor in it, in a new Actors folder named after the file.
// A single actor file (NNNN-name.foundry.json) works too. Nothing else in the world is changed.
const input = document.createElement("input");
input.type = "file";
input.accept = ".json,application/json";
input.addEventListener("change", async () => {
  const file = input.files?.[0];
  if (!file) return;
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (err) {
    return ui.notifications.error(`chargen: ${file.name} is not JSON (${err.message})`);
  }
  const actors = (Array.isArray(data) ? data : [data]).filter(a => a && typeof a === "object" && a.name && a.type);
  if (!actors.length) return ui.notifications.error(`chargen: ${file.name} holds no actor`);
  const wrong = actors.find(a => a._stats?.systemId && a._stats.systemId !== game.system.id);
  if (wrong) return ui.notifications.error(`chargen: ${file.name} is for the ${wrong._stats.systemId} system, this world runs ${game.system.id}`);
  const folder = await Folder.create({ name: file.name.replace(/\.json$/i, ""), type: "Actor" });
  const made = await Actor.createDocuments(actors.map(a => ({ ...a, folder: folder.id })), { keepEmbeddedIds: true });
  ui.notifications.info(`chargen: ${made.length} actor${made.length === 1 ? "" : "s"} imported into the folder ${folder.name}`);
});
input.click();
