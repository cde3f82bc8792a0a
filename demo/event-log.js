// The demos' event log: the page listens to the elements' events like to any DOM event, and writes
// each one that its #events box names (data-events) as a line: the event's name and its detail.
const log = document.getElementById('events');
for (const name of log.dataset.events.split(' ')) {
  document.addEventListener(name, (e) => {
    log.textContent += `${name} ${JSON.stringify(e.detail)}\n`;
  });
}
